function greet(name: string, greeting?: string, punct: string = "!"): string {
  return `${greeting ?? "Hello"}, ${name}${punct}`;
}
function sum(first: number, ...rest: number[]): number {
  return rest.reduce((a, b) => a + b, first);
}
return [greet("Ada"), greet("Bob", "Hi"), greet("Cy", undefined, "?"), sum(1, 2, 3, 4)];
