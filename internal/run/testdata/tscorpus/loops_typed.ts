let total: number = 0;
for (let i: number = 0; i < 5; i++) total += i;
outer: for (const row of [[1, 2], [3, 4]] as number[][]) {
  for (const cell of row) {
    if (cell === 3) continue outer;
    total += cell * 10;
  }
}
let k: number = 0;
while ((k as number) < 3) k++;
do { k += 2 } while (k < 10 as boolean);
return { total, k };
