const words = ['banana', 'Apple', 'cherry', 'apple', 'Banana'];
return [[...words].sort(), 'a'.localeCompare('b'), 'b'.localeCompare('a'), 'a'.localeCompare('a'), 'a' < 'B', 'abc' < 'abd', [10, 9, 1, 100].sort(), [10, 9, 1, 100].sort((a, b) => a - b)];
