await tools.string.upper({ text: 42 });
return 'unreachable';
