const camel = 'some-long_name here'.replace(/[-_ ](\w)/g, (_, c) => c.toUpperCase());
const snake = 'someLongName'.replace(/[A-Z]/g, c => '_' + c.toLowerCase());
const templ = 'Hi {name}, you are {age}'.replace(/\{(\w+)\}/g, (m, k) => ({ name: 'Ann', age: 30 })[k] ?? m);
const escaped = 'a.b*c'.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
return [camel, snake, templ, escaped];
