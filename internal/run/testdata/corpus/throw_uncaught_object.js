console.log('about to throw');
throw { reason: 'custom' };
