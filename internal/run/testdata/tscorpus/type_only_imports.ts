import type { Order } from "./orders";
import type * as Types from "./types";
const o = { id: "o1", total: 5 };
const copy: Order = { ...o } as Order;
return copy;
