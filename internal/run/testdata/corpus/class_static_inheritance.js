class Base {
  static count = 0;
  static create() { this.count++; return new this(); }
  static get label() { return 'label:' + this.name; }
}
class Child extends Base {}
Child.create(); Child.create(); Base.create();
return [Base.count, Child.count, Object.hasOwn(Child, 'count'), Child.label, Base.label];
