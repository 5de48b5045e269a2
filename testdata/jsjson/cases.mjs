// Writes cases.json: how Node reads bytes as UTF-8 (readFileSync(..., "utf8"),
// Buffer.toString and TextDecoder, which must agree) and what
// JSON.stringify(JSON.parse(text)) makes of JSON texts. skein's
// internal/utf8js and internal/jsjson are tested against it.
//
//   node testdata/jsjson/cases.mjs
import { writeFileSync, readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Each input is a string of bytes: one character per byte (latin1).
const bytes = (s) => Buffer.from(s, "latin1");
const hex = (b) => Buffer.from(b).toString("hex");

const dir = mkdtempSync(join(tmpdir(), "jsjson-"));
function readAsPi(b) {
  const f = join(dir, "x");
  writeFileSync(f, b);
  const viaFile = readFileSync(f, "utf8");
  const viaBuffer = b.toString("utf8");
  const viaDecoder = new TextDecoder().decode(b);
  if (viaFile !== viaBuffer || viaFile !== viaDecoder) {
    throw new Error(`decoders disagree on ${hex(b)}`);
  }
  return viaFile;
}

const decode = [
  "", "A", "abc",
  "\xe2\x82", "\xe2\x82A", "\xe2", "\xe2A", // a 3-byte sequence cut short
  "\xf0\x9f\x98", "\xf0\x9f", "\xf0", "\xf0\x9f\x98A", // a 4-byte one
  "\xc2", "\xc2A", "\xe0\xa0", "\xe0\xa0A", "\xf0\x90\x80",
  "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf", "\xe0\x9f\xbf", "\xf0\x80\x80\xaf", "\xf0\x8f\xbf\xbf", // overlong
  "\xed\xa0\x80", "\xed\xbf\xbf", "\xed\xa0\x80\xed\xb0\x80", "\xed\x9f\xbf", // surrogates, and U+D7FF
  "\xf4\x90\x80\x80", "\xf4\x8f\xbf\xbf", "\xf5\x80\x80\x80", "\xf7\xbf\xbf\xbf", // above U+10FFFF, and U+10FFFF
  "\xf8\x88\x80\x80\x80", "\xfc\x84\x80\x80\x80\x80", "\xfe", "\xff", "\xfe\xff", // never lead bytes
  "\x80", "\xbf", "\x80\x80", "\x80\xbfA", "A\x80B", // lone continuation bytes
  "\xe2\x82\xe2\x82\xac", "\xe2\x82\xac\xe2\x82", "\xef\xbf\xbd", "\xf0\x90\x80\x80",
  "\xc3\xa9t\xc3\xa9", "\xe3\x81\x93\xe3\x82\x93", "\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa9",
  "a\xe2\x82bc\xf0\x9f\x98d\xed\xa0\x80e\xff",
  "\xe1\x80\xe1\x80\x80", "\xf1\x80\x80\xf1\x80\x80\x80", "\xf3\xbf\xbf\xbf\xf4",
];

const value = [
  // Already as JSON.stringify writes it.
  `{"role":"user","content":[{"type":"text","text":"hi\\n\\"there\\"\\\\"}],"timestamp":1772442025829}`,
  `[true,false,null,"",{},[],0,-1,1.5,"\\u0000\\u001f\\b\\f\\n\\r\\t\\ud800"]`,
  // Numbers.
  "[0,-0,-0.0,0e10,1.0,100.0,1.50,1e2,1E2,1e+2,1e-7,1.5e-7,0.000001,1e-6,1e-5,123e-20,4.35,2.5e-8]",
  "[1e20,1e21,123456789012345678901,123456789012345680000,12345678901234567890,1e16,10000000000000000]",
  "[9007199254740991,9007199254740992,9007199254740993,-9007199254740993,18446744073709551616]",
  "[5e-324,2e-324,1e-400,-1e-400,1.7976931348623157e308,1e309,-1e309,0.1,0.30000000000000004]",
  "[123456789012345,1234567890123456,12345678901234567,0.1234567890123456789,-1.25e-310]",
  // Escapes.
  `"\\u0041\\/\\u00e9\\u00E9\\uD83D\\uDE00\\ud83d\\ude00x\\u001B\\u001f\\u0008\\u000a\\u000C\\u007f\\u2028\\u2029<>&\\u0022\\u005C"`,
  `["\\ud800","\\ud800\\ud800","\\udc00\\ud800","\\uDBFF","\\udfff\\u0041","\\ud800x","\\uDC00","\\ud83d\\u0041"]`,
  '"\xe2\x80\xa8\xe2\x80\xa9<>&\x7f\xc2\x80\xc2\x9b\xe2\x80\xae"', // raw U+2028, U+2029, DEL, C1, U+202E
  // Whitespace.
  ' { "a" : [ 1 , 2 ] ,\n\t"b":{ } , "c" : [ ] }\r\n',
  // Duplicate keys: the last value, in the first one's place.
  `{"a":1,"b":2,"a":3}`, `{"x":{"a":1,"a":{"b":1,"b":2}},"y":[{"k":1,"k":2}]}`, `{"\\u0061":1,"a":2}`,
  `{"a":{"p":1},"b":0,"a":[2]}`,
  // Keys that are array indexes come first, in numeric order.
  `{"b":1,"2":2,"1":3,"a":4,"01":5,"4294967294":6,"4294967295":7,"-1":8,"1.5":9,"0":10,"10":11,"9":12}`,
  `{"1":1,"a":2,"1":3}`, `{"0":0,"1":1,"a":2}`, `{"a":0,"0":1}`, `{"\\u0031":1,"0":0}`,
  `{"__proto__":1,"a":2}`, `{"__proto__":{"x":1},"constructor":2}`,
  // Invalid UTF-8 in strings and keys, replaced before JSON.parse sees it.
  '"a\xe2\x82b"', '"\xed\xa0\x80"', '{"k\xff":"v\xf0\x9f\x98"}', '{"a\xff":1,"a\xfe":2}',
  '["\xc0\xaf","\xf4\x90\x80\x80","\x80\x80","\xe2\x82\xac\xe2\x82"]',
  // Nesting.
  "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]", '{"a":{"b":{"c":{"d":[{"e":{}}]}}}}',
];

const string = [
  "", "plain", 'quote " backslash \\ slash /',
  "\x00\x01\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x1b\x1f\x20\x7f",
  "\xe2\x80\xa8\xe2\x80\xa9<>&\xc2\x80\xc2\x9b", // U+2028, U+2029, <>&, C1
  "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc0\xaf", "\xff\xfe", "a\xe2\x82\"b\x1b]52;c;aGk=\x07",
  "\xf0\x9f\x98\x80", "\xf0\x9f\x98", "\xe3\x81\x93\x80",
];

const out = {
  decode: decode.map((s) => ({ in: hex(bytes(s)), out: hex(Buffer.from(readAsPi(bytes(s)), "utf8")) })),
  value: value.map((s) => {
    const b = bytes(s);
    return { in: hex(b), out: hex(Buffer.from(JSON.stringify(JSON.parse(readAsPi(b))), "utf8")) };
  }),
  string: string.map((s) => {
    const b = bytes(s);
    return { in: hex(b), out: hex(Buffer.from(JSON.stringify(readAsPi(b)), "utf8")) };
  }),
};
rmSync(dir, { recursive: true });
writeFileSync(new URL("cases.json", import.meta.url), JSON.stringify(out, null, 1) + "\n");
