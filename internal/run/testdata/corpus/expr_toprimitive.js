const money = { amount: 42, [Symbol.toPrimitive](hint) { return hint === 'number' ? this.amount : hint === 'string' ? `$${this.amount}` : 'default:' + this.amount; } };
const vo = { valueOf() { return 7; }, toString() { return 'seven'; } };
const onlyTo = { toString() { return 'ts'; } };
return [+money, `${money}`, money + '', vo * 2, `${vo}`, vo + 1, String(vo), onlyTo + '!', [1, [2, 3]] + '', +[], +{}, +'  12  ', +'0x1f', +'1e3', +'12px'];
