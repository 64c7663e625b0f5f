// The interactive layer of lesson pages (see macros/render/widgets.py for the HTML contract).
