// Property get and set on plain objects, including a few shapes.
function main() {
  const points = [];
  for (let i = 0; i < 100; i++) {
    points.push({ x: i, y: i * 2, z: 0 });
  }
  let sum = 0;
  for (let round = 0; round < 5000; round++) {
    for (let i = 0; i < points.length; i++) {
      const p = points[i];
      p.z = p.x + p.y + round;
      sum = (sum + p.z) % 1000003;
    }
  }
  return sum;
}
