try { await tools.fail({ message: 'unprocessable', status: 422 }); }
catch (e) { return [e.message, e.kind]; }
