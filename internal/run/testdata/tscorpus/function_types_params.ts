type Reducer<S, A> = (state: S, action: A) => S;
type Action = { type: "inc"; by?: number } | { type: "reset" };
const reducer: Reducer<number, Action> = (state, action) => {
  switch (action.type) {
    case "inc":
      return state + (action.by ?? 1);
    case "reset":
      return 0;
  }
};
function apply<S, A>(r: Reducer<S, A>, init: S, actions: readonly A[], onStep?: (s: S, i: number) => void): S {
  let s: S = init;
  actions.forEach((a: A, i: number): void => {
    s = r(s, a);
    onStep?.(s, i);
  });
  return s;
}
const seen: number[] = [];
const end = apply(reducer, 0, [{ type: "inc" }, { type: "inc", by: 5 }, { type: "reset" }, { type: "inc", by: 2 }], (s) => seen.push(s));
return { end, seen };
