"""The README's Python examples run as doctests, so they cannot drift."""
import doctest
import re

from conftest import ROOT


def test_the_readme_examples_print_what_the_readme_shows():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(>>>.*?)```", text, re.S)
    assert blocks, "no >>> example in README.md"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README block {i}", "README.md", 0))
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted >= 4
