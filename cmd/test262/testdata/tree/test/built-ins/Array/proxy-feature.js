/*---
description: Uses an excluded feature (skipped).
features: [Proxy]
---*/
new Proxy({}, {});
