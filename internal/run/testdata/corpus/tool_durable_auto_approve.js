const r = await tools.approvals.request({ reason: 'deploy', autoApprove: true });
return r;
