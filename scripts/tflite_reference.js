// Runs a .tflite model with TensorFlow Lite itself (the WebAssembly build shipped in the npm
// package @tensorflow/tfjs-tflite) on inputs saved by `nnapi run --output-dir`, and compares its
// outputs with the ones nnapi wrote there.
//
//   node tflite_reference.js WASM_DIR MODEL.tflite RUN_DIR [TOLERANCE]
//
// RUN_DIR holds input_<k>.npy and output_<k>.npy. Prints one line per output with the largest
// absolute difference and the relative L2 error ||nnapi - tflite|| / ||tflite||; exits 1 if any
// relative L2 error exceeds TOLERANCE (default 1e-3). (Largest-difference ratios are printed for
// information only: with random inputs a few outputs come out saturated near zero.)
'use strict';
const fs = require('fs');
const path = require('path');

function readNpy(p) {
  const b = fs.readFileSync(p);
  if (b.subarray(1, 6).toString() !== 'NUMPY') throw new Error(`${p}: not a .npy file`);
  const major = b[6];
  const hlen = major === 1 ? b.readUInt16LE(8) : b.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + hlen;
  const header = b.subarray(major === 1 ? 10 : 12, start).toString();
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const data = b.subarray(start);
  return { descr, bytes: new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)) };
}

function asNumbers(descr, bytes) {
  const buf = bytes.buffer;
  switch (descr.slice(1)) {
    case 'f4': return new Float32Array(buf);
    case 'i4': return new Int32Array(buf);
    case 'u1': case 'b1': return new Uint8Array(buf);
    case 'i1': return new Int8Array(buf);
    default: throw new Error(`unsupported dtype ${descr}`);
  }
}

async function main() {
  const [wasmDir, modelPath, runDir, tolArg] = process.argv.slice(2);
  if (!runDir) {
    console.error('usage: node tflite_reference.js WASM_DIR MODEL.tflite RUN_DIR [TOLERANCE]');
    process.exit(2);
  }
  const tol = tolArg ? Number(tolArg) : 1e-3;
  const factory = require(path.resolve(wasmDir, 'tflite_web_api_cc.js'));
  const M = await factory({ wasmBinary: fs.readFileSync(path.resolve(wasmDir, 'tflite_web_api_cc.wasm')) });
  const model = new Uint8Array(fs.readFileSync(modelPath));
  const ptr = M._malloc(model.length);
  M.HEAPU8.set(model, ptr);
  const created = M.TFLiteWebModelRunner.CreateFromBufferAndOptions(
      ptr, model.length, { numThreads: 1, enableProfiling: false, maxProfilingBufferEntries: 1024 });
  if (!created.ok()) throw new Error(created.errorMessage());
  const runner = created.value();
  const inputs = runner.GetInputs();
  for (let i = 0; i < inputs.size(); i++) {
    const dst = inputs.get(i).data();
    const src = readNpy(path.join(runDir, `input_${i}.npy`)).bytes;
    if (src.byteLength !== dst.byteLength) {
      throw new Error(`input ${i}: ${src.byteLength} bytes saved, TFLite expects ${dst.byteLength}`);
    }
    new Uint8Array(dst.buffer, dst.byteOffset, dst.byteLength).set(src);
  }
  if (!runner.Infer()) throw new Error('TFLite inference failed');
  const outputs = runner.GetOutputs();
  let worst = 0;
  for (let i = 0; i < outputs.size(); i++) {
    const t = outputs.get(i);
    const ref = t.data();
    const ours = readNpy(path.join(runDir, `output_${i}.npy`));
    const a = asNumbers(ours.descr, ours.bytes);
    if (a.length !== ref.length) throw new Error(`output ${i}: ${a.length} values from nnapi, ${ref.length} from TFLite`);
    let maxDiff = 0, maxRef = 0, diff2 = 0, ref2 = 0;
    for (let k = 0; k < a.length; k++) {
      const d = a[k] - ref[k];
      maxDiff = Math.max(maxDiff, Math.abs(d));
      maxRef = Math.max(maxRef, Math.abs(ref[k]));
      diff2 += d * d;
      ref2 += ref[k] * ref[k];
    }
    const rel = ref2 > 0 ? Math.sqrt(diff2 / ref2) : Math.sqrt(diff2);
    worst = Math.max(worst, rel);
    console.log(`output ${i} (${t.name}) [${t.shape}]: relative L2 error ${rel.toExponential(3)}, ` +
                `max |nnapi - tflite| = ${maxDiff.toExponential(3)} (max |tflite| = ${maxRef.toExponential(3)})` +
                `${rel > tol ? '  FAIL' : ''}`);
  }
  process.exit(worst > tol ? 1 : 0);
}

main().catch((e) => { console.error(`tflite_reference: ${e.message || e}`); process.exit(2); });
