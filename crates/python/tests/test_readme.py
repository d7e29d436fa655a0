"""The Python examples of the README and of docs/python.md run as doctests, so they cannot
drift."""
import doctest
import re

from conftest import ROOT


def test_the_python_examples_print_what_their_pages_show():
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for page in ["README.md", "docs/python.md"]:
        text = (ROOT / page).read_text(encoding="utf-8")
        blocks = re.findall(r"```python\n(>>>.*?)```", text, re.S)
        assert blocks, f"no >>> example in {page}"
        for i, block in enumerate(blocks):
            runner.run(parser.get_doctest(block, {}, f"{page} block {i}", page, 0))
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted >= 6
