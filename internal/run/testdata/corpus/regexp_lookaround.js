return ['price: $42, cost: $7'.match(/(?<=\$)\d+/g), 'foobar foobaz'.match(/foo(?=baz)/).index, 'abc123'.replace(/(?<!\d)\d/, '#'), 'x1 y2'.match(/\w(?!1)\d/)[0]];
