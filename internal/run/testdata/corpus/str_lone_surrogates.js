const lone = '\ud800';
const mixed = 'x' + lone + 'y';
return [mixed.length, mixed.charCodeAt(1), mixed.isWellFormed(), mixed.toWellFormed().charCodeAt(1), 'ok'.isWellFormed(), encodeURIComponent('é ok')];
