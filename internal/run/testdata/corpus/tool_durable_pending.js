const r = await tools.approvals.request({ reason: 'ship it' });
return r.approved;
