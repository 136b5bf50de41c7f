return [
  1 == '1', 0 == '', null == undefined, null == 0, undefined == 0, NaN == NaN,
  '0' == false, [] == false, [1] == 1, [1, 2] == '1,2', ({}) == '[object Object]',
  null === null, '' == 0, ' \t\n' == 0, true == 1, true == 2, 'b' > 'a', '10' < '9', 10 < 9, '10' < 9,
];
