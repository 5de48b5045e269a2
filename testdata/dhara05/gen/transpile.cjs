const ts = require("typescript"); const fs = require("fs");
for (const f of ["session", "session-manager"]) {
  const src = fs.readFileSync(f + ".ts", "utf8");
  const out = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } });
  fs.writeFileSync(f + ".js", out.outputText);
}
