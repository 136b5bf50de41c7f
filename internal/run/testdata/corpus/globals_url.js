const u = new URL('https://user:pw@example.com:8080/p/a/t/h?query=string&a=1#hash');
const rel = new URL('../up?x=1', 'https://example.com/a/b/c');
return [u.protocol, u.username, u.hostname, u.port, u.host, u.origin, u.pathname, u.search, u.hash, u.searchParams.get('query'), rel.href, String(new URL('HTTP://EXAMPLE.com/%7Efoo'))];
