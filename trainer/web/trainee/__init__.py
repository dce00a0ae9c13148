"""A trainee's side: each role's home page (``home``, blueprint ``main``), the drills
(``drills``), certification exams (``exams``) and practice that adapts (``learning``).
"""
