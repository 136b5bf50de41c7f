let message: string = "";
try {
  await tools.fail({ message: "nope" });
} catch (e: unknown) {
  message = (e as Error).message;
}
try {
  JSON.parse("{");
} catch (err: any) {
  message += " / " + err.name;
}
return message;
