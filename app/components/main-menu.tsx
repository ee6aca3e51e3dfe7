import { NavLink } from "react-router";
import { mainMenu } from "~/content/navigation";
import { useSiteChrome } from "./site-chrome";

type MainMenuProps = { className: string; listClassName: string; linkClassName: string };

/**
 * The main menu's links; the header shows them in a row, the mobile menu in a column. They load their page
 * afresh, since the public pages run without React in the browser and cannot be rendered by it.
 */
export function MainMenu({ className, listClassName, linkClassName }: MainMenuProps) {
  const { menu } = useSiteChrome();
  return (
    <nav aria-label="Main" className={className}>
      <ul className={listClassName}>
        {mainMenu.map((item) => (
          <li key={item.id}>
            <NavLink to={item.path} end reloadDocument className={linkClassName}>
              {menu.main[item.id]}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
