// Throwing and catching exceptions in a loop, through a few frames.
function check(i) {
  if (i % 2 === 0) {
    throw new RangeError("even " + i);
  }
  return i;
}

function middle(i) {
  try {
    return check(i);
  } finally {
    i++;
  }
}

function main() {
  let caught = 0;
  let ok = 0;
  for (let i = 0; i < 50000; i++) {
    try {
      ok += middle(i);
    } catch (e) {
      if (e instanceof RangeError) {
        caught++;
      }
    }
  }
  return [caught, ok % 1000003];
}
