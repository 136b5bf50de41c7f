const r = await tools.echo({ id: 1, tags: ['x', 'y'], meta: { ok: true } });
console.log('result', r);
console.info('id=%d tags=%s', r.id, r.tags.join('|'));
console.warn('json %j', r.meta);
console.error(r.tags, r.meta.ok);
return r.id;
