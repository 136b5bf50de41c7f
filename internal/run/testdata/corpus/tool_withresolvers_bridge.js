const { promise, resolve } = Promise.withResolvers();
tools.slow({ ms: 30 }).then(r => resolve('bridged ' + r.slept));
return await promise;
