"""The Korean benchmark, split by role: config (what is measured), corpus (the
set: the sentences said by espeak-ng, clean and in pink noise), training (`ears
train` for the phrase and how its model knows each voice), scanning (the
settings and `ears scan` over the set), tables (Markdown tables and the target
checks) and report (the page and the README's headline). bench/korean.py is
the entry."""
