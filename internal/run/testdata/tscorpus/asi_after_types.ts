const a = [1, 2, 3] as number[]
;[4, 5].forEach((x) => a.push(x))
type T = number
const b = a.length as T
let c: number
c = b * 2
const d = c!
;(() => { c = c + 1 })()
return { a, b, c, d }
