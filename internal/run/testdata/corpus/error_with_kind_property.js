const e = new Error('looks like a tool failure');
e.kind = 'ToolFailure';
throw e;
