class Account {
  #balance = 0;
  static #count = 0;
  #log = [];
  constructor(start) { this.#balance = start; Account.#count++; }
  #record(op) { this.#log.push(op); }
  deposit(n) { this.#record('+' + n); this.#balance += n; return this; }
  get balance() { return this.#balance; }
  get history() { return [...this.#log]; }
  static get count() { return Account.#count; }
  static isAccount(o) { return #balance in o; }
}
const a = new Account(10).deposit(5).deposit(1);
new Account(0);
return [a.balance, a.history, Account.count, Account.isAccount(a), Account.isAccount({}), Object.keys(a)];
