class ValidationError extends Error { constructor(m) { super(m); this.name = 'ValidationError'; } }
console.log('validating');
throw new ValidationError('field x is required');
