// Tool inputs follow the same contract: a Set is not data, and the call fails before it is made.
let refused;
try {
  await tools.echo({ ids: new Set([1, 2]) });
} catch (e) {
  refused = e.kind;
}
const echoed = await tools.echo({ when: new Date(Date.UTC(2024, 0, 15)), gone: undefined, nan: NaN, err: new Error('x') });
return { refused, echoed };
