console.log(new Date(0));
console.log(/x/g, [/a+b/i]);
console.log({ when: new Date(Date.UTC(2024, 1, 29)) });
return null;
