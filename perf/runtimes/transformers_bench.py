#!/usr/bin/env python3
"""A second runtime for perfgate: PyTorch + transformers on the same model shapes.

Reads a perfgate model spec (perf/models/<name>.json), builds the matching transformers model with
random weights directly on the GPU (nothing is downloaded), and measures prefill and decode
tokens/s with CUDA synchronisation around every timed region. Each repetition prints one line:

  perfgate-transformers rep=<i>/<n> prompt_tokens=<P> generated_tokens=<G> batch=<B> prefill_ms=<x>
      prefill_tok_s=<x> decode_ms=<x> decode_tok_s=<x> peak_memory_bytes=<n>

(on one line), preceded by one provenance line:

  perfgate-transformers-env torch=<v> transformers=<v> cuda=<v> device=<name> dtype=<d>

Exit codes: 0 ok, 3 bad spec or arguments, 4 benchmark error; an out-of-memory error is printed
as "CUDA out of memory" and exits 4 so that perfgate classifies it as SKIP:oom.
"""
import argparse
import json
import sys
import time


def build_config(spec, transformers):
    arch = spec["architecture"]
    common = dict(
        vocab_size=int(spec["vocab_size"]),
        hidden_size=int(spec["embedding_length"]),
        num_hidden_layers=int(spec["block_count"]),
        num_attention_heads=int(spec["head_count"]),
        num_key_value_heads=int(spec.get("head_count_kv") or spec["head_count"]),
        head_dim=int(spec.get("head_dim") or int(spec["embedding_length"]) // int(spec["head_count"])),
        max_position_embeddings=int(spec.get("context_length") or 4096),
        rms_norm_eps=float(spec.get("rms_norm_eps", 1e-5)),
        rope_theta=float(spec.get("rope_freq_base", 10000.0)),
        tie_word_embeddings=bool(spec.get("tied_embeddings", False)),
    )
    if arch == "llama":
        return transformers.LlamaConfig(intermediate_size=int(spec["feed_forward_length"]), **common)
    if arch == "qwen3":
        return transformers.Qwen3Config(intermediate_size=int(spec["feed_forward_length"]), **common)
    if arch == "qwen3moe":
        return transformers.Qwen3MoeConfig(
            intermediate_size=int(spec.get("feed_forward_length") or spec["expert_feed_forward_length"]),
            moe_intermediate_size=int(spec["expert_feed_forward_length"]),
            num_experts=int(spec["expert_count"]),
            num_experts_per_tok=int(spec["expert_used_count"]),
            decoder_sparse_step=1,
            mlp_only_layers=[],
            **common,
        )
    raise ValueError(f"architecture '{arch}' has no transformers mapping")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", required=True, help="perfgate model spec JSON")
    ap.add_argument("-p", "--prompt-tokens", type=int, default=512)
    ap.add_argument("-n", "--gen-tokens", type=int, default=128)
    ap.add_argument("-b", "--batch", type=int, default=1)
    ap.add_argument("-w", "--warmup", type=int, default=1)
    ap.add_argument("-r", "--repetitions", type=int, default=3)
    ap.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float16", "float32"])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    try:
        with open(args.spec, encoding="utf-8") as f:
            spec = json.load(f)
    except (OSError, ValueError) as e:
        print(f"error: cannot read spec {args.spec}: {e}", file=sys.stderr)
        return 3

    import torch
    import transformers

    if not torch.cuda.is_available():
        print("error: no CUDA device is visible to PyTorch", file=sys.stderr)
        return 4
    dtype = getattr(torch, args.dtype)
    torch.manual_seed(args.seed)
    dev = torch.device("cuda")
    print(
        f"perfgate-transformers-env torch={torch.__version__} transformers={transformers.__version__} "
        f"cuda={torch.version.cuda} device={torch.cuda.get_device_name(0)} dtype={args.dtype}",
        flush=True,
    )
    try:
        config = build_config(spec, transformers)
    except (KeyError, ValueError) as e:
        print(f"error: spec {args.spec}: {e}", file=sys.stderr)
        return 3

    try:
        with dev:
            try:
                model = transformers.AutoModelForCausalLM.from_config(config, dtype=dtype)
            except TypeError:  # transformers before 4.56 calls it torch_dtype
                model = transformers.AutoModelForCausalLM.from_config(config, torch_dtype=dtype)
        model.eval()
        vocab = int(spec["vocab_size"])
        prompt = torch.randint(0, vocab, (args.batch, args.prompt_tokens), device=dev)

        def one_pass():
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            out = model(input_ids=prompt, use_cache=True)
            torch.cuda.synchronize()
            t1 = time.perf_counter()
            cache = out.past_key_values
            token = out.logits[:, -1:].argmax(-1)
            for _ in range(args.gen_tokens):
                out = model(input_ids=token, past_key_values=cache, use_cache=True)
                cache = out.past_key_values
                token = out.logits[:, -1:].argmax(-1)
            torch.cuda.synchronize()
            t2 = time.perf_counter()
            return t1 - t0, t2 - t1

        with torch.inference_mode():
            for _ in range(args.warmup):
                one_pass()
            torch.cuda.reset_peak_memory_stats()
            for i in range(args.repetitions):
                prefill_s, decode_s = one_pass()
                p = args.prompt_tokens * args.batch
                g = args.gen_tokens * args.batch
                print(
                    f"perfgate-transformers rep={i + 1}/{args.repetitions} prompt_tokens={args.prompt_tokens} "
                    f"generated_tokens={args.gen_tokens} batch={args.batch} "
                    f"prefill_ms={prefill_s * 1e3:.3f} prefill_tok_s={p / prefill_s:.3f} "
                    f"decode_ms={decode_s * 1e3:.3f} decode_tok_s={g / decode_s:.3f} "
                    f"peak_memory_bytes={torch.cuda.max_memory_allocated()}",
                    flush=True,
                )
    except torch.cuda.OutOfMemoryError as e:
        print(f"CUDA out of memory: {e}", file=sys.stderr)
        return 4
    except RuntimeError as e:
        print(f"error: benchmark failed: {e}", file=sys.stderr)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
