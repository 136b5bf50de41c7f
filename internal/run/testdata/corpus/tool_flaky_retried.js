const r = await tools.flaky({ failures: 2, value: { payload: [1, 2] } });
const once = await tools.flaky({ failures: 0, value: 'first time' });
return [r, once];
