from humanly.cli import run

run()
