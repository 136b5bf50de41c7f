let x: any = { a: [1, 2] }
const y = x as { a: number[] }
;(y.a as number[]).push(3)
const z = y.a!
;[10, 20].forEach((v) => z.push(v))
const t = `${z.length}` satisfies string
;`ignored`
return { z, t }
