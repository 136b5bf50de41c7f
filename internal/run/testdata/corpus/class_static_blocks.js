class Config {
  static defaults = { retries: 3 };
  static table;
  static {
    this.table = Object.keys(this.defaults).map(k => k.toUpperCase());
  }
  static #secret = 's';
  static { Config.revealed = Config.#secret + '!'; }
}
return [Config.table, Config.revealed, Config.defaults];
