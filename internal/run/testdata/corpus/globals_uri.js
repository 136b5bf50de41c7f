return [encodeURIComponent('a b&c=d/é'), encodeURI('https://x.com/a b?q=é#h'), decodeURIComponent('a%20b%26'), decodeURI('%41%20'), decodeURI('%26'), encodeURIComponent('😀')];
