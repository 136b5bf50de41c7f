interface AddInput { a: number; b: number }
interface AddOutput { sum: number }
const input = { a: 2, b: 40 } as AddInput;
const out: AddOutput = await tools.math.add(input) as AddOutput;
return out.sum;
