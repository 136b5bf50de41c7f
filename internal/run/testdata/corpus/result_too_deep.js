let v = 'leaf';
for (let i = 0; i < 40; i++) v = { child: v };
return v;
