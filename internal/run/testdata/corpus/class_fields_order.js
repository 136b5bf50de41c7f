const order = [];
class Base { a = order.push('base field'); constructor() { order.push('base ctor'); } }
class Derived extends Base { b = order.push('derived field'); constructor() { order.push('before super'); super(); order.push('after super'); } }
new Derived();
class Arrow { name = 'arrow'; get = () => this.name; }
const { get } = new Arrow();
return [order, get()];
