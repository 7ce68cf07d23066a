"""Tiny randomly initialised vision-language models, saved like real checkpoints, for offline tests of ``hf/``.

Each builder writes into a folder what ``save_pretrained`` writes for a real checkpoint of its family
(config.json, model.safetensors, generation_config.json, tokenizer files, the processor's files and the family's
own chat template), so ``hf/<folder>`` loads through exactly the code path a Hub checkpoint takes (``AutoProcessor``
+ ``AutoModelForImageTextToText``). What they share:

- a byte-level BPE tokenizer (``tokenizers``, a few hundred tokens) trained on a few sentences, wrapped in
  ``PreTrainedTokenizerFast`` with the family's special tokens;
- the family's real processor class with its PIL image processor (no torchvision) at 32 px, and the chat template
  the family's instruction-tuned checkpoints ship (verbatim, so system turns behave as they do for real; PaliGemma
  ships none);
- the family's real model class from a config of ``Size`` TINY: hidden size 32, 2 layers, ~0.1 M parameters
  (``LARGE``, ~0.34 B, is for timing on a GPU).

The generation config suppresses single-byte and special tokens (end of sequence included), so greedy output is a
readable run of merged BPE pieces and never empty. A build takes well under a second once transformers is
imported; its weights are deterministic (fixed seed).

``FAMILIES`` maps a family name to its builder (LLaVA 1.5, LLaVA-NeXT, Gemma 3, Idefics3, Idefics2, PaliGemma,
Qwen2-VL, Qwen2.5-VL); ``build(name, folder)`` builds one. Families whose processor cannot be constructed here
(Qwen2-VL and Qwen2.5-VL: their processors carry a video processor, which needs torchvision) still get a folder
laid out as on the Hub (the tokenizer, image processor and template saved one by one), so loading it through
``hf/`` reports the exact reason.

Fixtures: ``tiny_llava``, ``tiny_llava_nosys`` (a template that raises on system turns, as Gemma-2 / Mistral
templates do) and ``tiny_gemma3`` (wired in ``tests/conftest.py``); ``tiny_family(name)`` builds any family once
per session (import it into the test module that uses it). The request helpers (``mc_request``, ``provider``,
``ask``, ``ask_together``) send what the runner sends.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest
from helpers import require_local_models

SENTENCES = [
    "Based on the image, choose the correct option for the following question.",
    "Question: Which lung shows the opacity? Answer: the left lung.",
    "Answer with the option's letter from the given choices directly. Your answer should be just one letter.",
    "A: left lung B: right lung C: both lungs D: neither",
    "Is there a fracture in this X-ray image? (please answer yes/no) Yes. No.",
    "The correct answer is B. The heart is enlarged. The image is a CT scan of the chest.",
    "You are a helpful assistant expert in medical domain. Describe the findings in this MRI of the brain.",
]
SPECIAL = ["<unk>", "<s>", "</s>", "<pad>", "<image>"]
IMAGE_SIZE = 32
PATCH_SIZE = 8

# A minimal template of our own (system turns optional), kept for the older tests that rely on its exact layout.
CHAT_TEMPLATE = (
    "{%- for message in messages -%}"
    "{%- if message['role'] == 'system' and not system_ok -%}"
    "{{- raise_exception('System role not supported') -}}"
    "{%- endif -%}"
    "{{- '<|' + message['role'] + '|>' -}}"
    "{%- if message['content'] is string -%}{{- message['content'] -}}"
    "{%- else -%}{%- for part in message['content'] -%}"
    "{%- if part['type'] == 'image' -%}{{- '<image>' -}}"
    "{%- elif part['type'] == 'text' -%}{{- part['text'] -}}{%- endif -%}"
    "{%- endfor -%}{%- endif -%}"
    "{{- '</s>\n' -}}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- '<|assistant|>' -}}{%- endif -%}"
)

# The families' own chat templates, as their instruction-tuned checkpoints ship them.
# llava-hf/llava-1.5-7b-hf: a system turn is rendered without a role prefix.
LLAVA_15_TEMPLATE = (
    "{% for message in messages %}{% if message['role'] != 'system' %}{{ message['role'].upper() + ': '}}"
    "{% endif %}{# Render all images first #}{% for content in message['content'] | selectattr('type', 'equalto', "
    "'image') %}{{ '<image>\n' }}{% endfor %}{# Render all text next #}{% if message['role'] != 'assistant' %}"
    "{% for content in message['content'] | selectattr('type', 'equalto', 'text') %}{{ content['text'] + ' '}}"
    "{% endfor %}{% else %}{% for content in message['content'] | selectattr('type', 'equalto', 'text') %}"
    "{% generation %}{{ content['text'] + ' '}}{% endgeneration %}{% endfor %}{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}{{ 'ASSISTANT:' }}{% endif %}"
)
# llava-hf/llava-v1.6-mistral-7b-hf
LLAVA_NEXT_TEMPLATE = (
    "{% for message in messages %}{% if message['role'] == 'system' %}{{ '<<SYS>>\n' + message['content'][0]['text']"
    " + '\n<</SYS>>\n\n' }}{% elif message['role'] == 'user' %}{{ '[INST] ' }}{# Render all images first #}"
    "{% for content in message['content'] | selectattr('type', 'equalto', 'image') %}{{ '<image>\n' }}{% endfor %}"
    "{# Render all text next #}{% for content in message['content'] | selectattr('type', 'equalto', 'text') %}"
    "{{ content['text'] }}{% endfor %}{{' [/INST]' }}{% elif message['role'] == 'assistant' %}"
    "{{ ' ' + message['content'][0]['text'] + '<\\\\s> '}}{% else %}"
    "{{ raise_exception('Only user and assistant roles are supported!') }}{% endif %}{% endfor %}"
)
# google/gemma-3-4b-it and google/medgemma-4b-it: the system text is folded into the first user turn.
GEMMA3_TEMPLATE = (
    "{{ bos_token }}\n"
    "{%- if messages[0]['role'] == 'system' -%}\n"
    "    {%- if messages[0]['content'] is string -%}\n"
    "        {%- set first_user_prefix = messages[0]['content'] + '\n\n' -%}\n"
    "    {%- else -%}\n"
    "        {%- set first_user_prefix = messages[0]['content'][0]['text'] + '\n\n' -%}\n"
    "    {%- endif -%}\n"
    "    {%- set loop_messages = messages[1:] -%}\n"
    "{%- else -%}\n"
    "    {%- set first_user_prefix = \"\" -%}\n"
    "    {%- set loop_messages = messages -%}\n"
    "{%- endif -%}\n"
    "{%- for message in loop_messages -%}\n"
    "    {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}\n"
    "        {{ raise_exception(\"Conversation roles must alternate user/assistant/user/assistant/...\") }}\n"
    "    {%- endif -%}\n"
    "    {%- if (message['role'] == 'assistant') -%}\n"
    "        {%- set role = \"model\" -%}\n"
    "    {%- else -%}\n"
    "        {%- set role = message['role'] -%}\n"
    "    {%- endif -%}\n"
    "    {{ '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else \"\") }}\n"
    "    {%- if message['content'] is string -%}\n"
    "        {{ message['content'] | trim }}\n"
    "    {%- elif message['content'] is iterable -%}\n"
    "        {%- for item in message['content'] -%}\n"
    "            {%- if item['type'] == 'image' -%}\n"
    "                {{ '<start_of_image>' }}\n"
    "            {%- elif item['type'] == 'text' -%}\n"
    "                {{ item['text'] | trim }}\n"
    "            {%- endif -%}\n"
    "        {%- endfor -%}\n"
    "    {%- else -%}\n"
    "        {{ raise_exception(\"Invalid content type\") }}\n"
    "    {%- endif -%}\n"
    "    {{ '<end_of_turn>\n' }}\n"
    "{%- endfor -%}\n"
    "{%- if add_generation_prompt -%}\n"
    "    {{'<start_of_turn>model\n'}}\n"
    "{%- endif -%}\n"
)
# HuggingFaceTB/SmolVLM-Instruct (Idefics3)
IDEFICS3_TEMPLATE = (
    "<|im_start|>{% for message in messages %}{{message['role'] | capitalize}}{% if message['content'][0]['type'] == "
    "'image' %}{{':'}}{% else %}{{': '}}{% endif %}{% for line in message['content'] %}{% if line['type'] == 'text' %}"
    "{{line['text']}}{% elif line['type'] == 'image' %}{{ '<image>' }}{% endif %}{% endfor %}<end_of_utterance>\n"
    "{% endfor %}{% if add_generation_prompt %}{{ 'Assistant:' }}{% endif %}"
)
# HuggingFaceM4/idefics2-8b (processor_config.json)
IDEFICS2_TEMPLATE = IDEFICS3_TEMPLATE.replace("<|im_start|>", "", 1).replace("message['role'] | capitalize",
                                                                            "message['role'].capitalize()")
# Qwen/Qwen2-VL-2B-Instruct and Qwen/Qwen2.5-VL-3B-Instruct
QWEN2_VL_TEMPLATE = (
    "{% set image_count = namespace(value=0) %}{% set video_count = namespace(value=0) %}{% for message in messages %}"
    "{% if loop.first and message['role'] != 'system' %}<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
    "{% endif %}<|im_start|>{{ message['role'] }}\n{% if message['content'] is string %}{{ message['content'] }}"
    "<|im_end|>\n{% else %}{% for content in message['content'] %}{% if content['type'] == 'image' or 'image' in "
    "content or 'image_url' in content %}{% set image_count.value = image_count.value + 1 %}{% if add_vision_id %}"
    "Picture {{ image_count.value }}: {% endif %}<|vision_start|><|image_pad|><|vision_end|>{% elif content['type'] "
    "== 'video' or 'video' in content %}{% set video_count.value = video_count.value + 1 %}{% if add_vision_id %}"
    "Video {{ video_count.value }}: {% endif %}<|vision_start|><|video_pad|><|vision_end|>{% elif 'text' in content "
    "%}{{ content['text'] }}{% endif %}{% endfor %}<|im_end|>\n{% endif %}{% endfor %}{% if add_generation_prompt "
    "%}<|im_start|>assistant\n{% endif %}"
)


# ---- shared parts ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Size:
    """How big a built model is: the tests use TINY; perf/local_models.py --large uses LARGE."""

    hidden: int = 32  # decoder width
    layers: int = 2
    heads: int = 2
    kv_heads: int = 2
    vision_hidden: int = 32
    vision_layers: int = 2
    vision_heads: int = 2
    image: int = IMAGE_SIZE  # the vision tower's input side, px
    patch: int = PATCH_SIZE

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads

    @property
    def patches(self) -> int:
        """Patches per side of one image."""
        return self.image // self.patch


TINY = Size()
#: ~0.35-0.5 B parameters a family (a 1024-wide, 16-layer decoder; a 768-wide, 12-layer tower at 224 px): big
#: enough that a GPU's time goes to the model, for timing batching there
LARGE = Size(hidden=1024, layers=16, heads=16, kv_heads=4, vision_hidden=768, vision_layers=12, vision_heads=12,
             image=224, patch=14)


def train_tokenizer(special: list[str], *, template: str | None, vocab_size: int = 400, **tokens: Any) -> Any:
    """A byte-level BPE trained on SENTENCES with these special tokens, as a ``PreTrainedTokenizerFast``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    bpe = Tokenizer(models.BPE(unk_token=special[0]))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=special,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    bpe.train_from_iterator(SENTENCES * 4, trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=bpe, unk_token=special[0], chat_template=template, **tokens)


def text_config(cls: Any, tokenizer: Any, size: Size = TINY, **extra: Any) -> Any:
    """A decoder config of this size over this tokenizer's vocabulary."""
    ids = dict(bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
               pad_token_id=tokenizer.pad_token_id)
    return cls(**{"vocab_size": len(tokenizer), "hidden_size": size.hidden, "intermediate_size": 4 * size.hidden,
                  "num_hidden_layers": size.layers, "num_attention_heads": size.heads,
                  "num_key_value_heads": size.kv_heads, "head_dim": size.head_dim, "max_position_embeddings": 4096,
                  **ids, **extra})


def save(folder: Path, model: Any, tokenizer: Any, special: list[str], processor: Any = None) -> Path:
    """Readable greedy text (no single-byte pieces or special tokens, so never an empty answer), then
    ``save_pretrained`` of the model and the processor (or the tokenizer alone)."""
    added = set(tokenizer.get_added_vocab())  # special and added tokens (PaliGemma's <loc....> too)
    single = [i for tok, i in tokenizer.get_vocab().items()
              if len(tokenizer.convert_tokens_to_string([tok])) <= 1 or tok in special or tok in added]
    gc = model.generation_config
    gc.suppress_tokens = sorted(set(single))
    gc.pad_token_id, gc.eos_token_id = tokenizer.pad_token_id, tokenizer.eos_token_id
    if tokenizer.bos_token_id is not None:
        gc.bos_token_id = tokenizer.bos_token_id
    model.save_pretrained(folder)
    (processor or tokenizer).save_pretrained(folder)
    return folder


def _model(cls: Any, config: Any, seed: int) -> Any:
    import torch

    torch.manual_seed(seed)
    return cls(config).eval()


def _vision(cls: Any, size: Size, **extra: Any) -> Any:
    """A CLIP / SigLIP / Idefics3 vision tower config of this size."""
    return cls(hidden_size=size.vision_hidden, intermediate_size=4 * size.vision_hidden,
               num_hidden_layers=size.vision_layers, num_attention_heads=size.vision_heads, image_size=size.image,
               patch_size=size.patch, **extra)


# ---- the families ----------------------------------------------------------------------------------------------
def _llava_family(folder: str | Path, seed: int, size: Size, template: str, image_processor: Any, processor_cls: Any,
                  config_cls: Any, model_cls: Any, text_cls: Any, **config_extra: Any) -> Path:
    """The LLaVA layout shared by LLaVA 1.5 and LLaVA-NeXT: a CLIP tower (CLS dropped, as in llava-hf), an
    ``<image>`` token, a Llama-style decoder."""
    from transformers import CLIPVisionConfig

    tokenizer = train_tokenizer(SPECIAL, template=template, bos_token="<s>", eos_token="</s>", pad_token="<pad>",
                                extra_special_tokens={"image_token": "<image>"})
    processor = processor_cls(image_processor=image_processor, tokenizer=tokenizer, patch_size=size.patch,
                              vision_feature_select_strategy="default", num_additional_image_tokens=1,
                              chat_template=template)
    config = config_cls(vision_config=_vision(CLIPVisionConfig, size, projection_dim=size.vision_hidden),
                        text_config=text_config(text_cls, tokenizer, size),
                        image_token_index=tokenizer.convert_tokens_to_ids("<image>"),
                        vision_feature_select_strategy="default", vision_feature_layer=-1, **config_extra)
    return save(Path(folder), _model(model_cls, config, seed), tokenizer, SPECIAL, processor)


def build_tiny_llava(folder: str | Path, *, system_role: bool = True, seed: int = 0, template: str | None = None,
                     size: Size = TINY) -> Path:
    """LLaVA 1.5: a CLIP tower (patch 8 at 32 px → 16 image tokens) and a Llama decoder. ``template`` defaults to
    our minimal one (system turns raise unless ``system_role``)."""
    from transformers import (
        LlamaConfig,
        LlavaConfig,
        LlavaForConditionalGeneration,
        LlavaImageProcessorPil,
        LlavaProcessor,
    )

    image_processor = LlavaImageProcessorPil(size={"shortest_edge": size.image},
                                             crop_size={"height": size.image, "width": size.image})
    template = template or CHAT_TEMPLATE.replace("system_ok", "true" if system_role else "false")
    return _llava_family(folder, seed, size, template, image_processor, LlavaProcessor, LlavaConfig,
                         LlavaForConditionalGeneration, LlamaConfig)


def build_llava(folder: str | Path, seed: int = 0, size: Size = TINY) -> Path:
    """LLaVA 1.5 with llava-hf's own chat template."""
    return build_tiny_llava(folder, seed=seed, template=LLAVA_15_TEMPLATE, size=size)


def build_llava_next(folder: str | Path, seed: int = 0, size: Size = TINY) -> Path:
    """LLaVA-NeXT (1.6, the catalogue's hf-llava-1.6): any-resolution tiles over a Mistral decoder."""
    from transformers import (
        LlavaNextConfig,
        LlavaNextForConditionalGeneration,
        LlavaNextImageProcessorPil,
        LlavaNextProcessor,
        MistralConfig,
    )

    side = size.image
    pinpoints = [[side, side], [side, 2 * side], [2 * side, side]]
    image_processor = LlavaNextImageProcessorPil(size={"shortest_edge": side}, image_grid_pinpoints=pinpoints,
                                                 crop_size={"height": side, "width": side})
    return _llava_family(folder, seed, size, LLAVA_NEXT_TEMPLATE, image_processor, LlavaNextProcessor,
                         LlavaNextConfig, LlavaNextForConditionalGeneration, MistralConfig,
                         image_grid_pinpoints=pinpoints)


def build_tiny_gemma3(folder: str | Path, *, seed: int = 0, template: str | None = None, size: Size = TINY) -> Path:
    """Gemma 3 (MedGemma's architecture): a SigLIP tower average-pooled 2 x 2 (4 image tokens at 32 px),
    ``token_type_ids`` marking them. ``template`` defaults to our minimal one."""
    import torch
    from transformers import (
        Gemma3Config,
        Gemma3ForConditionalGeneration,
        Gemma3ImageProcessorPil,
        Gemma3Processor,
        Gemma3TextConfig,
        SiglipVisionConfig,
    )

    folder = Path(folder)
    special = ["<unk>", "<bos>", "<eos>", "<pad>", "<start_of_image>", "<end_of_image>", "<image_soft_token>",
               "<start_of_turn>", "<end_of_turn>"]
    template = template or CHAT_TEMPLATE.replace("system_ok", "true").replace("'<image>'", "'<start_of_image>'")
    tokenizer = train_tokenizer(special, template=template, bos_token="<bos>", eos_token="<eos>", pad_token="<pad>",
                                extra_special_tokens={"boi_token": "<start_of_image>", "eoi_token": "<end_of_image>",
                                                      "image_token": "<image_soft_token>"})
    tokens = (size.patches // 2) ** 2
    image_processor = Gemma3ImageProcessorPil(size={"height": size.image, "width": size.image})
    processor = Gemma3Processor(image_processor=image_processor, tokenizer=tokenizer, chat_template=template,
                                image_seq_length=tokens)
    ids = tokenizer.convert_tokens_to_ids
    text = text_config(Gemma3TextConfig, tokenizer, size, sliding_window=64)
    config = Gemma3Config(text_config=text, vision_config=_vision(SiglipVisionConfig, size), mm_tokens_per_image=tokens,
                          boi_token_index=ids("<start_of_image>"), eoi_token_index=ids("<end_of_image>"),
                          image_token_index=ids("<image_soft_token>"))
    model = _model(Gemma3ForConditionalGeneration, config, seed)
    # Gemma 3 initialises its image projection to zeros (a fresh model ignores its images); a trained checkpoint's
    # is not, so draw it at random (seeded) for the images to reach the decoder
    with torch.no_grad():
        model.model.multi_modal_projector.mm_input_projection_weight.normal_(
            0.0, 0.2, generator=torch.Generator().manual_seed(seed))
    return save(folder, model, tokenizer, special, processor)


def build_gemma3(folder: str | Path, seed: int = 0, size: Size = TINY) -> Path:
    """Gemma 3 / MedGemma with Gemma 3's own chat template (the system text folded into the first user turn)."""
    return build_tiny_gemma3(folder, seed=seed, template=GEMMA3_TEMPLATE, size=size)


def build_idefics3(folder: str | Path, seed: int = 0, size: Size = TINY) -> Path:
    """Idefics3 (SmolVLM-Instruct, the catalogue's hf-smolvlm): images split into tiles of the tower's side plus a
    global view, each pixel-shuffled (scale 2) to a quarter of its patches, over a Llama decoder."""
    from transformers import (
        Idefics3Config,
        Idefics3ForConditionalGeneration,
        Idefics3ImageProcessorPil,
        Idefics3Processor,
        Idefics3VisionConfig,
        LlamaConfig,
    )

    folder = Path(folder)
    special = ["<unk>", "<|im_start|>", "<end_of_utterance>", "<pad>", "<image>", "<fake_token_around_image>",
               "<global-img>"]
    tokenizer = train_tokenizer(special, template=IDEFICS3_TEMPLATE, bos_token="<|im_start|>",
                                eos_token="<end_of_utterance>", pad_token="<pad>")
    image_processor = Idefics3ImageProcessorPil(size={"longest_edge": 2 * size.image},
                                                max_image_size={"longest_edge": size.image})
    processor = Idefics3Processor(image_processor=image_processor, tokenizer=tokenizer,
                                  image_seq_len=size.patches ** 2 // 4, chat_template=IDEFICS3_TEMPLATE)
    config = Idefics3Config(vision_config=_vision(Idefics3VisionConfig, size),
                            text_config=text_config(LlamaConfig, tokenizer, size), scale_factor=2,
                            image_token_id=tokenizer.convert_tokens_to_ids("<image>"))
    return save(folder, _model(Idefics3ForConditionalGeneration, config, seed), tokenizer, special, processor)


def build_idefics2(folder: str | Path, seed: int = 0, size: Size = TINY) -> Path:
    """Idefics2: a SigLIP-style tower whose patches a perceiver resamples to a fixed number of latents (4 here, 64
    in idefics2-8b), over a Mistral decoder."""
    from transformers import (
        Idefics2Config,
        Idefics2ForConditionalGeneration,
        Idefics2ImageProcessorPil,
        Idefics2PerceiverConfig,
        Idefics2Processor,
        Idefics2VisionConfig,
        MistralConfig,
    )

    folder = Path(folder)
    special = ["<unk>", "<s>", "<end_of_utterance>", "<pad>", "<image>", "<fake_token_around_image>"]
    tokenizer = train_tokenizer(special, template=IDEFICS2_TEMPLATE, bos_token="<s>", eos_token="<end_of_utterance>",
                                pad_token="<pad>")
    latents = 4 if size == TINY else 64
    image_processor = Idefics2ImageProcessorPil(size={"shortest_edge": size.image, "longest_edge": 2 * size.image},
                                                do_image_splitting=False)
    processor = Idefics2Processor(image_processor=image_processor, tokenizer=tokenizer, image_seq_len=latents,
                                  chat_template=IDEFICS2_TEMPLATE)
    perceiver = Idefics2PerceiverConfig(hidden_size=size.hidden, resampler_n_latents=latents, resampler_depth=2,
                                        resampler_n_heads=size.heads, resampler_head_dim=size.head_dim,
                                        num_key_value_heads=size.kv_heads)
    config = Idefics2Config(vision_config=_vision(Idefics2VisionConfig, size), perceiver_config=perceiver,
                            text_config=text_config(MistralConfig, tokenizer, size),
                            image_token_id=tokenizer.convert_tokens_to_ids("<image>"))
    return save(folder, _model(Idefics2ForConditionalGeneration, config, seed), tokenizer, special, processor)


def build_paligemma(folder: str | Path, seed: int = 0, size: Size = TINY) -> Path:
    """PaliGemma: a SigLIP tower (one token a patch) over a Gemma decoder; no chat template (PaliGemma checkpoints
    ship none: the prompt is the images, BOS, the text and a newline)."""
    from transformers import (
        GemmaConfig,
        PaliGemmaConfig,
        PaliGemmaForConditionalGeneration,
        PaliGemmaProcessor,
        SiglipImageProcessorPil,
        SiglipVisionConfig,
    )

    folder = Path(folder)
    special = ["<unk>", "<bos>", "<eos>", "<pad>", "<image>"]
    tokenizer = train_tokenizer(special, template=None, bos_token="<bos>", eos_token="<eos>", pad_token="<pad>",
                                extra_special_tokens={"image_token": "<image>"})
    image_processor = SiglipImageProcessorPil(size={"height": size.image, "width": size.image})
    image_processor.image_seq_length = size.patches ** 2
    processor = PaliGemmaProcessor(image_processor=image_processor, tokenizer=tokenizer)  # adds <loc>/<seg> tokens
    config = PaliGemmaConfig(vision_config=_vision(SiglipVisionConfig, size),
                             text_config=text_config(GemmaConfig, tokenizer, size), projection_dim=size.hidden,
                             hidden_size=size.hidden, image_token_index=tokenizer.convert_tokens_to_ids("<image>"))
    return save(folder, _model(PaliGemmaForConditionalGeneration, config, seed), tokenizer, special, processor)


def _build_qwen(folder: str | Path, seed: int, size: Size, v25: bool) -> Path:
    """Qwen2-VL / Qwen2.5-VL: a ViT whose patches are merged 2 x 2, M-RoPE in a Qwen2 decoder. The processor
    cannot be constructed without torchvision (its video processor), so its parts are saved one by one, as the
    Hub repository holds them; ``AutoProcessor`` then assembles (or fails to assemble) the processor on load."""
    import transformers

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    special = ["<unk>", "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>",
               "<|image_pad|>", "<|video_pad|>"]
    tokenizer = train_tokenizer(special, template=QWEN2_VL_TEMPLATE, eos_token="<|im_end|>",
                                pad_token="<|endoftext|>")
    ids = tokenizer.convert_tokens_to_ids
    image_processor = transformers.Qwen2VLImageProcessorPil(
        min_pixels=size.image ** 2, max_pixels=4 * size.image ** 2, patch_size=size.patch, merge_size=2,
        temporal_patch_size=2)
    half = size.head_dim // 2  # M-RoPE splits a head's rotary half into time, height and width sections
    sections = [half // 4, (half - half // 4) // 2, half - half // 4 - (half - half // 4) // 2]
    text = dict(vocab_size=len(tokenizer), hidden_size=size.hidden, intermediate_size=4 * size.hidden,
                num_hidden_layers=size.layers, num_attention_heads=size.heads, num_key_value_heads=size.kv_heads,
                max_position_embeddings=4096,
                rope_parameters={"rope_type": "default", "rope_theta": 10000.0, "mrope_section": sections},
                bos_token_id=None, eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id)
    if v25:
        vision = dict(depth=size.vision_layers, hidden_size=size.vision_hidden,
                      intermediate_size=4 * size.vision_hidden, num_heads=size.vision_heads,
                      out_hidden_size=size.hidden, patch_size=size.patch, spatial_merge_size=2,
                      temporal_patch_size=2, window_size=4 * size.patch, fullatt_block_indexes=[size.vision_layers - 1])
        config_cls, model_cls, name = (transformers.Qwen2_5_VLConfig, transformers.Qwen2_5_VLForConditionalGeneration,
                                       "Qwen2_5_VLProcessor")
    else:
        vision = dict(depth=size.vision_layers, embed_dim=size.vision_hidden, hidden_size=size.hidden,
                      num_heads=size.vision_heads, mlp_ratio=4, patch_size=size.patch, spatial_merge_size=2,
                      temporal_patch_size=2)
        config_cls, model_cls, name = (transformers.Qwen2VLConfig, transformers.Qwen2VLForConditionalGeneration,
                                       "Qwen2VLProcessor")
    config = config_cls(text_config=text, vision_config=vision, image_token_id=ids("<|image_pad|>"),
                        video_token_id=ids("<|video_pad|>"), vision_start_token_id=ids("<|vision_start|>"),
                        vision_end_token_id=ids("<|vision_end|>"))
    save(folder, _model(model_cls, config, seed), tokenizer, special)
    image_processor.save_pretrained(folder)
    pre = folder / "preprocessor_config.json"
    pre.write_text(json.dumps(dict(json.loads(pre.read_text()), image_processor_type="Qwen2VLImageProcessor",
                                   processor_class=name), indent=2))
    (folder / "chat_template.jinja").write_text(QWEN2_VL_TEMPLATE)
    return folder


def build_qwen2_vl(folder: str | Path, seed: int = 0, size: Size = TINY) -> Path:
    """Qwen2-VL (see ``_build_qwen``)."""
    return _build_qwen(folder, seed, size, v25=False)


def build_qwen2_5_vl(folder: str | Path, seed: int = 0, size: Size = TINY) -> Path:
    """Qwen2.5-VL (the catalogue's hf-qwen2.5-vl-3b; see ``_build_qwen``)."""
    return _build_qwen(folder, seed, size, v25=True)


#: family name → builder; the names are what perf/local_models.py reports
FAMILIES: dict[str, Callable[..., Path]] = {
    "llava": build_llava,
    "llava_next": build_llava_next,
    "gemma3": build_gemma3,
    "idefics3": build_idefics3,
    "idefics2": build_idefics2,
    "paligemma": build_paligemma,
    "qwen2_vl": build_qwen2_vl,
    "qwen2_5_vl": build_qwen2_5_vl,
}


def build(name: str, folder: str | Path, seed: int = 0, size: Size = TINY) -> Path:
    """Build family ``name`` into ``folder``."""
    return FAMILIES[name](Path(folder), seed=seed, size=size)


# ---- requests, as the runner sends them -------------------------------------------------------------------------
QUESTION = "Which lung shows the opacity?"
OPTIONS = ("the left lung", "the right lung", "both lungs")
SYSTEM = "You are a radiologist."


def image(value: int = 90) -> Any:
    """A small grayscale image (as most medical images are: the provider converts to RGB), not square."""
    from PIL import Image

    from probe_ui.images import CanonicalImage

    img = Image.new("L", (40, 30), value)
    img.putpixel((5, 5), 255)
    x = value % 28  # a bright bar whose place depends on the value: after normalisation, images still differ
    img.paste(255 - value % 256, (x, 8, x + 10, 22))
    return CanonicalImage.from_pil(img)


def mc_request(settings: Any = None, system: str | None = SYSTEM, labels: tuple[str, ...] = ("A", "B", "C"),
               options: tuple[str, ...] = OPTIONS, images: tuple[int, ...] = (90,)) -> Any:
    """A multiple-choice request on ``len(images)`` images (grey levels), with or without a system prompt."""
    from probe_ui.messages import GenerationSettings, ImagePart, Message, Request, TextPart

    text = f"Question: {QUESTION}\n" + "".join(f"{label}: {o}\n" for label, o in zip(labels, options)) + "Answer: "
    msgs = [Message("system", (TextPart(system),))] if system else []
    msgs.append(Message("user", tuple(ImagePart(image(v)) for v in images) + (TextPart(text),)))
    return Request(tuple(msgs), settings or GenerationSettings(max_tokens=6), labels=labels,
                   question=QUESTION, options=options)


def provider(folder: str | Path, **options: Any) -> Any:
    """Through the same path as the CLI / app: a ``hf/<folder>`` spec resolved by the catalogue code."""
    from probe_ui import catalogue
    from probe_ui.providers import create
    from probe_ui.providers.base import ModelConfig
    from probe_ui.providers.hf import HFLocalProvider

    spec = f"hf/{folder}"
    config = catalogue.resolve(spec, {})
    if options:
        config = ModelConfig(name=spec, provider="hf", model=config.model, options=options)
    p = create(config)
    assert isinstance(p, HFLocalProvider)
    return p


def ask(p: Any, request: Any) -> Any:
    """One request, alone, on a fresh event loop."""
    import asyncio

    return asyncio.run(p.generate(request))


def ask_together(p: Any, requests: list[Any]) -> list[Any]:
    """Several requests at once (they are gathered into micro-batches)."""
    import asyncio

    async def gather() -> list[Any]:
        return list(await asyncio.gather(*(p.generate(r) for r in requests)))

    return asyncio.run(gather())


# ---- fixtures --------------------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def tiny_llava(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Path of a tiny random LLaVA checkpoint (system turns supported by its chat template)."""
    require_local_models()
    return build_tiny_llava(tmp_path_factory.mktemp("tiny-llava"))


@pytest.fixture(scope="session")
def tiny_llava_nosys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same model with a chat template that rejects system turns (as Gemma-2 / Mistral templates do)."""
    require_local_models()
    return build_tiny_llava(tmp_path_factory.mktemp("tiny-llava-nosys"), system_role=False)


@pytest.fixture(scope="session")
def tiny_gemma3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Path of a tiny random Gemma3 checkpoint (MedGemma's architecture)."""
    require_local_models()
    return build_tiny_gemma3(tmp_path_factory.mktemp("tiny-gemma3"))


@pytest.fixture(scope="session")
def tiny_family(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """``tiny_family(name)``: the folder of family ``name``, built once per session."""
    require_local_models()
    built: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in built:
            built[name] = build(name, tmp_path_factory.mktemp(f"tiny-{name}"))
        return built[name]

    return get
