"""The table-games manager's side: the installation's house ways and table-rules profiles
(``pages``, blueprint ``manager``; the profile form in ``profile_form``) and the house-way
editor (``ways``, blueprint ``manager_ways``).
"""
