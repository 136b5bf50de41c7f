throw 'plain string';
