/*---
description: Uses an excluded feature (skipped).
features: [WeakRef]
---*/
new WeakRef({});
