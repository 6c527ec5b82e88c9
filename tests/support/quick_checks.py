"""What CONTRIBUTING.md's quick check of a worked example runs: `pytest -k <slug>` selects every test
whose id names the example (those parametrized by it, or by its page, script or notebook) and, with
them, the tests that check every worked example at once, declared here: tests/conftest.py gives each
of them every example's name as a keyword (pytest_itemcollected), so that `-k <slug>` selects them too.

tests/tools/test_quick_checks.py holds the list complete: a test (not marked slow, nor one of the
tools' tests that no spec can fail, NOT_OF_AN_EXAMPLE) whose code names every example (the
examples' list, folder or presets, the pages, what `make update` generates or gathers) and that is
not parametrized is declared here (a parametrized test is
selected by its ids, which name the example, its page, script or notebook where it checks one).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]  # tests/

# Each as "tests/<file>::<function>".
EVERY_EXAMPLE = (
    "tests/browser/test_playground.py::test_editing_recalculates_every_step",
    "tests/browser/test_playground.py::test_examples_a_contributor_adds",
    "tests/browser/test_playground.py::test_projection_choices",
    "tests/browser/test_playground_heads.py::test_projections_of_other_widths_open_and_round_trip",
    "tests/browser/test_playground_teaching.py::test_explanations_equal_numpy",
    "tests/browser/test_playground_teaching.py::test_explanations_are_the_pages_worked_lines",
    "tests/browser/test_playground_teaching.py::test_every_explanation_adds_up_at_every_rounding",
    "tests/browser/test_playground_teaching.py::test_every_number_explains_itself_and_wraps",
    "tests/browser/test_playground_teaching.py::test_the_playgrounds_error_bounds_are_numpys",
    "tests/content/test_docs_numbers.py::test_there_are_pages",
    "tests/content/test_docs_numbers.py::test_generated_tables_are_up_to_date",
    "tests/content/test_docs_numbers.py::test_every_generated_table_the_pages_include_exists",
    "tests/content/test_notebooks.py::test_after_an_edit_of_a_page_the_notebook_tests_say_to_run_make_update",
    "tests/content/test_notebooks.py::test_no_link_of_a_notebook_is_relative",
    "tests/content/test_notebooks.py::test_every_downloadable_notebook_has_the_output_of_every_cell_that_prints",
    "tests/content/test_notebooks.py::test_every_notebook_page_links_back_to_its_page",
    "tests/content/test_notebooks.py::test_the_notebooks_page_lists_every_notebook_with_what_it_needs",
    "tests/content/test_notebooks.py::test_the_install_commands_cover_every_import_of_the_notebooks",
    "tests/content/test_notebooks.py::test_the_key_covers_the_files_a_notebook_names",
    "tests/tools/test_playground_bundle.py::test_the_bundle_is_gathered_and_git_ignores_it",
    "tests/content/test_playground_presets.py::test_presets_file_is_gathered_and_git_ignores_it",
    "tests/content/test_playground_presets.py::test_the_presets_follow_the_examples_given",
    "tests/content/test_playground_presets.py::test_file_is_plain_json",
    "tests/content/test_playground_presets.py::test_every_example_is_a_preset_primary_first",
    "tests/content/test_playground_presets.py::test_page_links_name_existing_presets",
    "tests/tools/test_registry.py::test_banners_by_kind",
    "tests/tools/test_registry.py::test_a_registered_producer_is_written_and_checked",
    "tests/tools/test_registry.py::test_the_build_hook_and_update_list_no_folders_by_hand",
    "tests/tools/test_registry.py::test_a_second_pass_runs_again_what_read_a_new_recording_and_gives_what_a_whole_one_gives",
    "tests/content/test_wording.py::test_the_code_pages_show_is_read",
    "tests/content/test_worked_examples.py::test_the_gallery_is_the_same_whichever_examples_there_are_and_the_build_adds_the_table",
    "tests/content/test_worked_examples.py::test_the_gallery_lists_every_example_in_the_nav",
    "tests/content/test_worked_examples.py::test_new_example_writes_a_valid_spec_from_another",
    "tests/content/test_worked_examples.py::test_make_update_says_which_hand_edit_it_replaces_and_where_it_belongs",
    "tests/package/test_cli.py::test_help_in_process",
    "tests/package/test_cli.py::test_a_spec_file_that_cannot_be_read_is_one_line",
    "tests/package/test_cli.py::test_explain_refuses_an_example_that_is_a_link_and_prints_nothing_it_leads_to",
    "tests/package/test_examples_spec.py::test_available_lists_the_three_articles_examples",
    "tests/package/test_examples_spec.py::test_a_spec_that_cannot_be_read_is_a_spec_error",
    "tests/package/test_examples_spec.py::test_a_spec_that_is_a_link_or_not_a_file_is_refused_before_it_is_read",
    "tests/package/test_examples_spec.py::test_the_layout_of_every_spec_file_agrees_with_tomllib",
    "tests/package/test_numbers.py::test_available_examples",
    "tests/package/test_spec_rules.py::test_every_number_of_the_examples_pages_is_printable",
    "tests/package/test_spec_rules.py::test_titles_that_differ_only_before_nfc_are_the_same_title",
    "tests/package/test_spec_rules.py::test_titles_that_nfkc_makes_one_are_the_same_title",
    "tests/package/test_topics.py::test_the_rnn_data_file_is_not_a_self_attention_example",
    "tests/snippets/test_examples.py::test_a_wrong_recorded_number_would_be_reported",
    "tests/snippets/test_recordings.py::test_every_snippet_is_shown_on_a_page",
)

# Tests of the tools whose code names every example but that no example's spec can fail (they were
# marked tooling before the tests were grouped by layer: tests/tools/).
NOT_OF_AN_EXAMPLE = (
    "tests/tools/test_example_tooling.py::test_two_examples_added_on_two_branches_merge_without_a_conflict",
    "tests/tools/test_notebook_pages.py::"
    "test_mkdocs_jupyter_renders_the_pages_unpatched_and_serve_converts_again_only_an_edited_notebook",
)

# What names every example in a test's code (tests/tools/test_quick_checks.py reads the tests with it).
EVERY = re.compile(
    r"\bSLUGS\b|\bavailable\(\)|examples\.load_all\(|\bPRESETS\b|presets\(\)|in_reading_order\(|EXAMPLES_DIR"
    r"|NOTEBOOKS_DIR|PAGES_DIR|\bPAGES\b|registry\.gather\(|stale_generated\(|producers\.generate\("
)


def every_example_tests() -> list[str]:
    """The tests (not parametrized, nor marked slow, nor NOT_OF_AN_EXAMPLE) whose code names every
    example: what EVERY_EXAMPLE must hold."""
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not (isinstance(node, ast.FunctionDef) and node.name.startswith("test_")):
                continue
            decorators = " ".join(ast.unparse(d) for d in node.decorator_list)
            if re.search(r"mark\.slow\b", decorators) or "parametrize(" in decorators:
                continue  # a parametrized test is selected by its ids, which name what it checks
            name = f"{path.relative_to(TESTS.parent).as_posix()}::{node.name}"
            if name not in NOT_OF_AN_EXAMPLE and EVERY.search("\n".join(ast.unparse(s) for s in node.body)):
                found.append(name)
    return found
