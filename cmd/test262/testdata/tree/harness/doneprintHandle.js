// Minimal stand-in for test262's doneprintHandle.js, for the runner's own tests.
function $DONE(error) {
  if (error) {
    print("Test262:AsyncTestFailure:" + error.name + ": " + error.message);
  } else {
    print("Test262:AsyncTestComplete");
  }
}
