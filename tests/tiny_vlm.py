"""A tiny randomly initialised LLaVA, saved like a real checkpoint, for offline tests of the ``hf`` provider.

The folder it writes is what ``save_pretrained`` writes for a real model (config.json, model.safetensors,
generation_config.json, tokenizer files, processor and chat template), so ``hf/<folder>`` loads through exactly the
code path a Hub checkpoint takes (``AutoProcessor`` + ``AutoModelForImageTextToText``). Parts:

- a byte-level BPE tokenizer (``tokenizers``, ~400 tokens) trained on a few sentences, wrapped in
  ``PreTrainedTokenizerFast`` with a jinja chat template (system turns supported unless ``system_role=False``,
  in which case the template raises on them as Gemma-2 / Mistral templates do);
- ``LlavaImageProcessorPil`` at 32 px and ``LlavaProcessor`` with patch size 8 → 16 image tokens (CLS dropped,
  as in llava-hf);
- ``LlavaConfig``: a CLIP vision tower and a Llama text model of hidden size 32 with 2 layers.

Its generation config suppresses single-byte and special tokens (end of sequence included), so greedy output is
a readable run of merged BPE pieces and never empty. Building takes well under a second once transformers is
imported; the output is deterministic (fixed seed).

``build_tiny_gemma3`` writes the same kind of folder for Gemma3 (MedGemma's architecture).

Use the ``tiny_llava`` / ``tiny_llava_nosys`` / ``tiny_gemma3`` pytest fixtures (wired in ``tests/conftest.py``),
or ``build_tiny_llava(folder)`` / ``build_tiny_gemma3(folder)``.
"""

from __future__ import annotations

from pathlib import Path

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


def build_tiny_llava(folder: str | Path, *, system_role: bool = True, seed: int = 0) -> Path:
    """Write a tiny random LLaVA checkpoint into ``folder`` and return its path."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import (
        CLIPVisionConfig,
        LlamaConfig,
        LlavaConfig,
        LlavaForConditionalGeneration,
        LlavaImageProcessorPil,
        LlavaProcessor,
        PreTrainedTokenizerFast,
    )

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)

    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=SPECIAL,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    bpe.train_from_iterator(SENTENCES * 4, trainer=trainer)
    template = CHAT_TEMPLATE.replace("system_ok", "true" if system_role else "false")
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, unk_token="<unk>", bos_token="<s>", eos_token="</s>",
                                        pad_token="<pad>", extra_special_tokens={"image_token": "<image>"},
                                        chat_template=template)
    image_processor = LlavaImageProcessorPil(size={"shortest_edge": IMAGE_SIZE},
                                             crop_size={"height": IMAGE_SIZE, "width": IMAGE_SIZE})
    processor = LlavaProcessor(image_processor=image_processor, tokenizer=tokenizer, patch_size=PATCH_SIZE,
                               vision_feature_select_strategy="default", num_additional_image_tokens=1,
                               chat_template=template)

    vocab = len(tokenizer)
    vision = CLIPVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                              image_size=IMAGE_SIZE, patch_size=PATCH_SIZE, projection_dim=32)
    text = LlamaConfig(vocab_size=vocab, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                       num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=512,
                       bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                       pad_token_id=tokenizer.pad_token_id)
    config = LlavaConfig(vision_config=vision, text_config=text,
                         image_token_index=tokenizer.convert_tokens_to_ids("<image>"),
                         vision_feature_select_strategy="default", vision_feature_layer=-1)
    torch.manual_seed(seed)
    model = LlavaForConditionalGeneration(config).eval()

    # readable greedy text: no single-byte pieces, no special tokens (so never an empty answer)
    single = [i for tok, i in tokenizer.get_vocab().items()
              if len(tokenizer.convert_tokens_to_string([tok])) <= 1 or tok in SPECIAL]
    model.generation_config.suppress_tokens = sorted(set(single))
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.bos_token_id = tokenizer.bos_token_id

    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder


def build_tiny_gemma3(folder: str | Path, *, seed: int = 0) -> Path:
    """Write a tiny random Gemma3 (MedGemma's architecture: SigLIP tower, pooled to 4 image tokens, and
    ``token_type_ids`` marking them) into ``folder`` and return its path."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import (
        Gemma3Config,
        Gemma3ForConditionalGeneration,
        Gemma3ImageProcessorPil,
        Gemma3Processor,
        Gemma3TextConfig,
        PreTrainedTokenizerFast,
        SiglipVisionConfig,
    )

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    special = ["<unk>", "<bos>", "<eos>", "<pad>", "<start_of_image>", "<end_of_image>", "<image_soft_token>"]
    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=special,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    bpe.train_from_iterator(SENTENCES * 4, trainer=trainer)
    template = CHAT_TEMPLATE.replace("system_ok", "true").replace("'<image>'", "'<start_of_image>'")
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=bpe, unk_token="<unk>", bos_token="<bos>", eos_token="<eos>", pad_token="<pad>",
        extra_special_tokens={"boi_token": "<start_of_image>", "eoi_token": "<end_of_image>",
                              "image_token": "<image_soft_token>"},
        chat_template=template)
    image_processor = Gemma3ImageProcessorPil(size={"height": IMAGE_SIZE, "width": IMAGE_SIZE})
    processor = Gemma3Processor(image_processor=image_processor, tokenizer=tokenizer, chat_template=template,
                                image_seq_length=4)
    ids = tokenizer.convert_tokens_to_ids
    vision = SiglipVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                                image_size=IMAGE_SIZE, patch_size=PATCH_SIZE)
    text = Gemma3TextConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                            num_attention_heads=2, num_key_value_heads=1, head_dim=16, max_position_embeddings=512,
                            sliding_window=64, bos_token_id=ids("<bos>"), eos_token_id=ids("<eos>"),
                            pad_token_id=ids("<pad>"))
    config = Gemma3Config(text_config=text, vision_config=vision, mm_tokens_per_image=4,
                          boi_token_index=ids("<start_of_image>"), eoi_token_index=ids("<end_of_image>"),
                          image_token_index=ids("<image_soft_token>"))
    torch.manual_seed(seed)
    model = Gemma3ForConditionalGeneration(config).eval()
    single = [i for tok, i in tokenizer.get_vocab().items()
              if len(tokenizer.convert_tokens_to_string([tok])) <= 1 or tok in special]
    model.generation_config.suppress_tokens = sorted(set(single))
    model.generation_config.pad_token_id = ids("<pad>")
    model.generation_config.eos_token_id = ids("<eos>")
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder


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
