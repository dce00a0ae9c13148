"""What turns the machine's things into words for the reader, one module per source:

- ``engine_words``: the engine's sentences and refusals (``message_words``), its fixed
  sentences (``sentence_words``);
- ``data_words``: the engine's data texts, pay tables, bonus categories and table rules
  (``data_text_words``, ``profile_description``), and the catalogue's extractor for them;
- ``names``: ids as words: rule ids, rule families, house ways, profiles, outcomes, drill
  modes and hand categories (``rule_name``, ``house_way_name``, ``slug_words`` ...);
- ``way_words``: a house way's own words (its sheet's translations) in the reader's language;
- ``house_way_words``: the house-way editor's words: rule kinds, conditions, check reports;
- ``card_names``: cards' names and letters in each language;
- ``change_history``: an audit entry as rows of setting, old value, new value.

A shared floor beside ``platform``: any area may import these; they never import an area.
"""
