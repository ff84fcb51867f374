index.php
