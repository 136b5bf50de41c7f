console.log('%o', [1]);
console.log('%O and %j', { a: 1 }, { b: 2 });
console.log('100%% sure, %s', 'yes', 'extra', 3);
console.log('%c styled', 'color: red');
return null;
